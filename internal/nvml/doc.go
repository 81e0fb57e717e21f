// Package nvml is nugo's binding of the NVIDIA Management Library
// (libnvidia-ml.so.1, installed with the NVIDIA driver), loaded with dlopen
// through github.com/ebitengine/purego as package driver loads libcuda: no
// cgo, and no failure at build or start-up time on machines without it.
// `nugo top` reads its devices' utilization, memory, temperature, power and
// clocks through it, and `nugo info` reports whether it can be used.
//
// API is the interface the CLI programs against; Library implements it over
// the real library, and package fakenvml implements it in memory for tests.
// Every NVML result code other than success is an *Error carrying the entry
// point's name, the code's name and NVML's own description of it.
package nvml
