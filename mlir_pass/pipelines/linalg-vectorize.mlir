// mlir_pass/pipelines/linalg-vectorize.mlir — the transform script of the linalg pipeline
// (docs/mlir.md, "From linalg"): vectorize every linalg.generic and linalg.fill
// (transform.structured.vectorize), then lower the transfer permutation maps, so that a scale
// read along the rows becomes a vector.transfer_read + vector.broadcast (+ vector.transpose),
// the forms --mx-scale-placement matches. Use it with
//   mxcert-opt IN.mlir --transform-preload-library=transform-library-paths=THIS_FILE
//     --transform-interpreter --canonicalize --mx-scale-placement ...
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.transfer_permutation_patterns
    } : !transform.any_op
    transform.yield
  }
}
