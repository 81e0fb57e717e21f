package frontend

import "reflect"

// TypeArgString spells a type argument as an instantiation in package
// pkgPath would, for the tests of package frontend_test.
func TypeArgString(t reflect.Type, pkgPath string) (string, error) {
	return typeArgString(t, pkgPath, typeArgImports{})
}
