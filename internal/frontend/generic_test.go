package frontend_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// TestTypeArgString: how a type argument is spelled in the instantiation's
// source, and why the ones that cannot be spelled are refused.
func TestTypeArgString(t *testing.T) {
	tests := []struct {
		name    string
		typ     reflect.Type
		want    string // spelling, when it succeeds
		wantErr string // part of the error, when it fails
	}{
		{name: "basic", typ: reflect.TypeOf(float32(0)), want: "float32"},
		{name: "slice of pointers", typ: reflect.TypeOf([]*int64(nil)), want: "[]*int64"},
		{name: "Float16", typ: reflect.TypeOf(cuda.Float16{}), want: "nugo_cuda.Float16"},
		{name: "other cuda type", typ: reflect.TypeOf(cuda.Dim3{}), wantErr: "whose types are not kernel element types (cuda.Float16 is the one that is)"},
		{name: "standard library", typ: reflect.TypeOf(time.Duration(0)), wantErr: "outside the standard library"},
		{name: "map", typ: reflect.TypeOf(map[int]int(nil)), wantErr: "cannot be spelled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := frontend.TypeArgString(tt.typ, "example.com/kernels")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("TypeArgString(%v) = %q, %v; want an error containing %q", tt.typ, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("TypeArgString(%v) = %q, %v; want %q", tt.typ, got, err, tt.want)
			}
		})
	}
}
