// mlir_pass/mxcert-opt.cpp — `mxcert-opt`: an mlir-opt with the dialects and upstream passes
// MX dot products need, plus `--mx-scale-placement`, `--mx-lower-narrow-floats` and the
// `--mx-to-llvm` pipeline. Follows mlir-opt's conventions (options, diagnostics, exit codes).
#include "mlir_pass/MxScalePlacement.h"
#include "mlir_pass/MxToLLVM.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::index::IndexDialect, mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect, mlir::ub::UBDialect,
                  mlir::vector::VectorDialect>();
  mlir::func::registerInlinerExtension(registry);

  // Upstream passes useful around ours (canonicalize, cse, inline, the LLVM conversions, and
  // arith-expand / convert-arith-to-apfloat for comparing with upstream lowerings).
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
  mlir::arith::registerArithPasses();
  mlir::memref::registerMemRefPasses();

  mxcert::mlir_pass::registerMxScalePlacementPass();
  mxcert::mlir_pass::registerMxToLLVM();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mxcert-opt: MX scale-placement rewrites (mxcert)\n", registry));
}
