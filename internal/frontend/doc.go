// Package frontend turns a kernel (a Go func value, a package directory and a
// function name, or source text) into checked SSA for the compiler.
//
// It finds the kernel's source (runtime.FuncForPC gives the file), parses the
// package, keeps only the declarations the kernel reaches (in its own package
// and in every other package it calls, whose source comes from
// RegisterPackage, the importing package's module, the module cache at the
// version the binary was built with, or NUGO_SOURCE_ROOT), type-checks them with
// go/types through nugo's own importer (which serves cuda, math, math/bits,
// math32 and the device math library from embedded declarations, so a deployed
// binary needs no Go toolchain), refuses what a GPU thread cannot do with a
// positioned sentence saying what to write instead, and builds SSA with
// golang.org/x/tools/go/ssa, generics instantiated.
//
// A kernel generated at run time (vectorize's generalized ufuncs) is a
// reflect.MakeFunc value, which has no source of its own: its maker
// registers Go source text for its func type with RegisterSource, and
// LoadFunc compiles that.
package frontend
