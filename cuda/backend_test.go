package cuda

import (
	"errors"
	"testing"
)

func TestBackendSelection(t *testing.T) {
	if err := SetBackend(CPU); err != nil {
		t.Fatal(err)
	}
	if b, err := CurrentBackend(); err != nil || b != CPU {
		t.Fatalf("CurrentBackend = %v, %v", b, err)
	}
	if err := SetBackend("quantum"); !errors.Is(err, ErrUnknownBackend) {
		t.Fatalf("SetBackend(quantum) = %v", err)
	}
	if b, _ := CurrentBackend(); b != CPU {
		t.Fatal("a failed SetBackend changed the backend")
	}
	if err := SetBackend(Auto); err != nil {
		t.Fatalf("SetBackend(auto) = %v", err)
	}
	statuses := Backends()
	if len(statuses) < 3 || statuses[0].Backend != CPU || !statuses[0].Available {
		t.Fatalf("Backends() = %+v", statuses)
	}
	for _, s := range statuses {
		if !s.Available && s.Reason == "" {
			t.Errorf("backend %s unavailable without a reason", s.Backend)
		}
	}
}

func TestNoGPUIsAnError(t *testing.T) {
	if _, err := Gpus(); err != nil && !errors.Is(err, ErrNoDevice) {
		t.Fatalf("Gpus error %v does not wrap ErrNoDevice", err)
	}
	gpus, err := Gpus()
	if err != nil {
		if err := SetBackend(GPU); !errors.Is(err, ErrNoDevice) {
			t.Fatalf("SetBackend(gpu) without a GPU = %v", err)
		}
		if err := SelectDevice(0); !errors.Is(err, ErrNoDevice) {
			t.Fatalf("SelectDevice without a GPU = %v", err)
		}
		return
	}
	if len(gpus) == 0 {
		t.Fatal("Gpus returned no devices and no error")
	}
}
