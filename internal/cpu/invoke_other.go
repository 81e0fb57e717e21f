//go:build !amd64 && !arm64

package cpu

import "reflect"

// Without a known register ABI every call goes through reflect.
const (
	regABI        = false
	intArgRegs    = 1
	floatArgRegs  = 1
	firstArgInts  = 0
	maxStackWords = 1
)

func fastCall[T any](fn reflect.Value, vals []reflect.Value, off uintptr) (func(T), rowFunc[T], bool) {
	return nil, nil, false
}
