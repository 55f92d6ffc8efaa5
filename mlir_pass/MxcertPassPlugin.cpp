// mlir_pass/MxcertPassPlugin.cpp — the MLIR pass plugin: upstream `mlir-opt` (Debian's
// mlir-opt-22) loads it with `--load-pass-plugin=libMxcertPassPlugin.so` and then runs the
// passes of mxcert-opt, `mx-scale-placement`, `mx-split-blocks`, `mx-lower-narrow-floats` and
// the `mx-to-llvm` pipeline, with the same code and options (docs/mlir.md, "The pass plugin").
#include "mlir_pass/MxScalePlacement.h"
#include "mlir_pass/MxSplitBlocks.h"
#include "mlir_pass/MxToLLVM.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

namespace {

/// Registers the passes unless a program that has them already (mxcert-opt, or mlir-opt that
/// loaded this plugin twice) registered them: registering a pass name twice is a fatal error
/// of the pass registry.
void registerPasses() {
  if (!mlir::PassInfo::lookup("mx-scale-placement")) mxcert::mlir_pass::registerMxScalePlacementPass();
  if (!mlir::PassInfo::lookup("mx-split-blocks")) mxcert::mlir_pass::registerMxSplitBlocksPass();
  if (!mlir::PassInfo::lookup("mx-lower-narrow-floats") && !mlir::PassPipelineInfo::lookup("mx-to-llvm"))
    mxcert::mlir_pass::registerMxToLLVM();
}

}  // namespace

/// The entry point `mlir::PassPlugin::load` looks up: the plugin's API version, name and
/// version, and the callback that registers its passes with the global pass registry.
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MxcertPasses", MXCERT_VERSION, registerPasses};
}
