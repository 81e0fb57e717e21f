// Package ptx is a small model of PTX assembly text: a module of globals and
// functions (kernel entries and device functions), each with typed virtual
// registers and a body of labels and instructions, and a writer that prints it
// in the form ptxas and the CUDA driver accept.
package ptx
