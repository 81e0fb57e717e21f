package hostmem

import "testing"

func TestParseMeminfo(t *testing.T) {
	for _, c := range []struct {
		name         string
		text         string
		avail, total int64
		ok           bool
	}{
		{"typical", "MemTotal:       16318844 kB\nMemFree:          512000 kB\nMemAvailable:    8000000 kB\nBuffers: 1 kB\n", 8000000 << 10, 16318844 << 10, true},
		{"order and spacing", "MemAvailable: 3 kB\n\nnoise\nMemTotal:\t5 kB", 3 << 10, 5 << 10, true},
		{"no MemAvailable (kernels before 3.14)", "MemTotal: 5 kB\nMemFree: 1 kB\n", 0, 5 << 10, false},
		{"garbage values", "MemTotal: x kB\nMemAvailable: -4 kB\n", 0, 0, false},
		{"empty", "", 0, 0, false},
	} {
		a, tot, ok := parseMeminfo([]byte(c.text))
		if ok != c.ok || (ok && (a != c.avail || tot != c.total)) {
			t.Errorf("%s: %d, %d, %v; want %d, %d, %v", c.name, a, tot, ok, c.avail, c.total, c.ok)
		}
	}
}

func TestInfo(t *testing.T) {
	a, tot, err := Info()
	if err != nil {
		t.Fatal(err)
	}
	if tot <= 0 || a <= 0 || a > tot {
		t.Fatalf("Info = %d available of %d", a, tot)
	}
	if lim := Limit(); int64(lim) < tot {
		t.Errorf("Limit %d (RAM and swap) is below the RAM total %d", lim, tot)
	}
}
