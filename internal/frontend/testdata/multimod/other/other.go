// Package other declares a helper of the same name as lib's.
package other

// Helper calls this package's helper.
func Helper(x int32) int32 { return helper(x) }

func helper(x int32) int32 {
	if x <= 1 {
		return 1
	}
	return x * helper(x-1)
}
