package ptxas

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// need skips visibly when ptxas is absent, except under CI=true.
func need(t *testing.T) {
	t.Helper()
	if Available() {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %v", ErrNotFound)
	}
	t.Skipf("SKIP (ptxas absent): %v", ErrNotFound)
}

const good = `.version 7.8
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], 7;
	ret;
}
`

func TestAssemble(t *testing.T) {
	need(t)
	for _, arch := range []string{"sm_75", "sm_90"} {
		log, err := Assemble(good, arch, true)
		if err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		if !strings.Contains(log, "registers") {
			t.Errorf("%s: verbose log lacks the register report:\n%s", arch, log)
		}
	}
	_, err := Assemble(strings.Replace(good, "st.global.u32", "st.bogus.u32", 1), "sm_75", false)
	var pe *Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Log, "bogus") && !strings.Contains(pe.Log, "error") {
		t.Fatalf("bad PTX: got %v, want a *ptxas.Error with a log", err)
	}
}

func TestVersion(t *testing.T) {
	need(t)
	v, err := Version()
	if err != nil || !strings.Contains(v, "release") {
		t.Fatalf("Version() = %q, %v", v, err)
	}
}
