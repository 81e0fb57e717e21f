// Package ptxas runs NVIDIA's ptxas (and cuobjdump) on PTX text: the check
// that every module nugo produces is valid for real GPUs, and the SASS and
// register report behind `nugo ptx -sass`. The tools come from the CUDA
// toolkit (scripts/install-ptxas.sh fetches them); they are looked up on PATH.
package ptxas
