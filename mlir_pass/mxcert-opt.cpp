// mlir_pass/mxcert-opt.cpp — `mxcert-opt`: an mlir-opt with every upstream dialect and pass,
// plus `--mx-scale-placement`, `--mx-lower-narrow-floats` and the `--mx-to-llvm` pipeline. Follows mlir-opt's conventions (options, diagnostics, exit codes).
#include "mlir_pass/MxScalePlacement.h"
#include "mlir_pass/MxSplitBlocks.h"
#include "mlir_pass/MxToLLVM.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  // Every upstream dialect, extension (the transform dialect's linalg and vector ops, the
  // bufferization models of tensor, linalg, arith, scf, vector, func) and pass, as mlir-opt
  // has them: the IR real pipelines produce (linalg on tensors or memrefs, vectorized with
  // transform.structured.vectorize, bufferized) parses and runs here (docs/mlir.md, "From
  // linalg").
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();

  mxcert::mlir_pass::registerMxScalePlacementPass();
  mxcert::mlir_pass::registerMxSplitBlocksPass();
  mxcert::mlir_pass::registerMxToLLVM();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mxcert-opt: MX scale-placement rewrites (mxcert)\n", registry));
}
