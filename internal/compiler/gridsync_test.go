package compiler

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

const gridSyncSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func phases(t cuda.Thread, a []int64, n int32) {
	i := t.Grid1()
	a[i] += int64(n)
	t.SyncGrid()
	a[i] += a[(i+1)%len(a)]
}

func barrier(t cuda.Thread) { t.SyncGrid() }

func viaFunc(t cuda.Thread, a []float32) {
	i := t.Grid1()
	a[i] = 1
	barrier(t)
	a[i] += a[len(a)-1-i]
}

func plain(t cuda.Thread, a []int64) { a[t.Grid1()]++ }
`

// A grid barrier lowers to the counter protocol with the scopes and
// instructions of its target, takes the hidden counter parameter last, and
// assembles for every architecture from sm_60 on.
func TestGridSyncLowering(t *testing.T) {
	cases := []struct {
		kernel     string
		sm         int
		arch       string
		want, not  []string
		paramBytes int
		debug      bool
	}{
		{"phases", 60, "sm_60", []string{"membar.gl", "ld.volatile.global.u32", "atom.global.add.u32", "atom.shared.add.u32"},
			[]string{"nanosleep", "ld.acquire", "fence.acq_rel", "gsync_ret", "gsync_exited"}, 40, false},
		{"phases", 75, "sm_75", []string{"fence.acq_rel.gpu", "ld.acquire.gpu.global.u32", "nanosleep.u32", "atom.global.add.u32"},
			[]string{"gsync_ret", "gsync_exited"}, 40, false},
		{"phases", 90, "sm_90", []string{"fence.acq_rel.gpu", "nanosleep.u32"}, []string{"gsync_ret", "gsync_exited"}, 40, false},
		{"viaFunc", 75, "sm_75", []string{"atom.global.add.u32", GridSyncPtr}, []string{"gsync_ret", "gsync_exited"}, 32, false},
		// Debug mode: the barrier watches the error record, so that a check
		// that ends a whole block does not leave the grid waiting, and the
		// exit word that a block's last returning thread sets.
		{"phases", 75, "sm_75", []string{"ld.volatile.global.u32", ErrorSymbol, "@%p", "gsync_ret", "gsync_exited",
			"ld.acquire.gpu.global.u32 \t%r", "st.release.gpu.global.u32", "+4]"}, nil, 40, true},
		{"phases", 60, "sm_60", []string{"gsync_ret", "gsync_exited", "st.volatile.global.u32"}, []string{"st.release", "ld.acquire"}, 40, true},
		{"phases", 90, "sm_90", []string{"gsync_ret", "gsync_exited", "st.release.gpu.global.u32"}, nil, 40, true},
		{"viaFunc", 90, "sm_90", []string{"gsync_ret", "gsync_exited"}, nil, 32, true},
	}
	have := ptxastest.Available(t)
	for _, c := range cases {
		name := c.kernel + "/" + c.arch
		if c.debug {
			name += "/debug"
		}
		t.Run(name, func(t *testing.T) {
			m, err := compileSrc(t, gridSyncSrc, c.kernel, Target{SM: c.sm, Debug: c.debug})
			if err != nil {
				t.Fatal(err)
			}
			// The barrier watches the error record in every build.
			if !m.UsesGridSync || !m.UsesErrorRecord {
				t.Fatalf("UsesGridSync %v, UsesErrorRecord %v", m.UsesGridSync, m.UsesErrorRecord)
			}
			p := m.GridSyncParam
			if p.Size != 8 || p.Offset != c.paramBytes-8 || m.ParamBytes != c.paramBytes || p.Role != "gridsync" {
				t.Errorf("hidden parameter %+v in a buffer of %d bytes; want 8 bytes at %d of %d", p, m.ParamBytes, c.paramBytes-8, c.paramBytes)
			}
			if !strings.Contains(m.PTX, ".param .u64 "+p.Name+"\n)") {
				t.Errorf("the entry does not end with the hidden parameter %s:\n%s", p.Name, ptxastest.Numbered(m.PTX))
			}
			for _, w := range c.want {
				if !strings.Contains(m.PTX, w) {
					t.Errorf("PTX lacks %q", w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(m.PTX, w) {
					t.Errorf("PTX has %q", w)
				}
			}
			if c.debug {
				checkGridExit(t, m, c.kernel)
			}
			if have {
				if _, err := ptxas.Assemble(m.PTX, c.arch, false); err != nil {
					t.Errorf("ptxas %s: %v\n%s", c.arch, err, ptxastest.Numbered(m.PTX))
				}
			}
		})
	}

	m, err := compileSrc(t, gridSyncSrc, "plain", Target{})
	if err != nil {
		t.Fatal(err)
	}
	if m.UsesGridSync || strings.Contains(m.PTX, "gridsync") || m.ParamBytes != 24 {
		t.Errorf("a kernel without SyncGrid: UsesGridSync %v, %d parameter bytes, PTX mentions gridsync: %v", m.UsesGridSync, m.ParamBytes, strings.Contains(m.PTX, "gridsync"))
	}
}

// checkGridExit checks a debug module's early-return detection: every
// return of the entry goes through the epilogue that counts the block's
// returned threads, and the SyncGrid has its ErrGridExit site at its call.
func checkGridExit(t *testing.T, m *Module, kernel string) {
	t.Helper()
	entry := m.PTX[strings.Index(m.PTX, ".entry"):]
	entry = entry[:strings.Index(entry, "\n}")]
	label := strings.Index(entry, "gsync_ret")
	if ret := strings.Index(entry, "\tret;"); label < 0 || ret < label {
		t.Errorf("the entry returns before the exit epilogue:\n%s", ptxastest.Numbered(m.PTX))
	}
	line := map[string]string{"phases": ":8", "viaFunc": ":12"}[kernel]
	found := false
	for _, s := range m.Sites {
		if s.Kind == errKinds[ErrGridExit] {
			found = true
			if !strings.HasSuffix(s.Pos, line) {
				t.Errorf("ErrGridExit site at %s; want the SyncGrid at line %s", s.Pos, line)
			}
		}
	}
	if !found {
		t.Errorf("no ErrGridExit site among %v", m.Sites)
	}
}

// Before sm_60 there are no cooperative launches: SyncGrid is a compile
// error at its call, in the kernel or in a device function.
func TestGridSyncNeedsSM60(t *testing.T) {
	for _, kernel := range []string{"phases", "viaFunc"} {
		_, err := compileSrc(t, gridSyncSrc, kernel, Target{SM: 52})
		var fe *frontend.Error
		if !errors.As(err, &fe) || len(fe.Diags) != 1 {
			t.Fatalf("%s for sm_52: %v; want one diagnostic", kernel, err)
		}
		d := fe.Diags[0]
		if !strings.Contains(d.Msg, "compute capability 6.0") || !strings.Contains(d.Msg, "sm_52") || d.Pos.Line == 0 {
			t.Errorf("%s: diagnostic %v: %s", kernel, d.Pos, d.Msg)
		}
	}
}
