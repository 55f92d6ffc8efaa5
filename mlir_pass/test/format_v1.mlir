// A certificate of format version 1 (its proofs trusted the encoder's analysis) is refused,
// naming the command that regenerates it (docs/certificates.md, "Version 2").
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%inputs/e2m1_k2_format_v1.json" 2>&1 | FileCheck %s
// CHECK: error: mx-scale-placement: cannot use guards='{{.*}}e2m1_k2_format_v1.json': format version 1: regenerate with `mxcert table --a e2m1 --b e2m1 --acc f32 --round rne --subnormals keep --k 2 --tree seq --lhs dequant --rhs post --relation bitwise -o FILE`
func.func @f() {
  return
}
