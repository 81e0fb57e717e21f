// Package genfile writes the files nugo gen generates into a package
// directory: only over a file that carries the generator's header (never
// over one written by hand), through a temporary file renamed into place
// (so that a full disk or a kill never leaves a half-written file that
// looks complete), and removing a generated file that is no longer needed.
package genfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Write makes dir/name hold src, or removes the generated file there when
// src is nil; it reports whether the directory changed. A file of that
// name without header as its first bytes is left alone and reported as an
// error.
func Write(dir, name, header string, src []byte) (bool, error) {
	path := filepath.Join(dir, name)
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		old = nil
	case err != nil:
		return false, err
	case !bytes.HasPrefix(old, []byte(header)):
		return false, fmt.Errorf("%s exists and was not written by nugo gen; rename it", path)
	}
	if src == nil {
		if old == nil {
			return false, nil
		}
		if err := os.Remove(path); err != nil {
			return false, fmt.Errorf("removing %s, which nothing needs now: %w", path, err)
		}
		return true, nil
	}
	if old != nil && bytes.Equal(old, src) {
		return false, nil
	}
	tmp, err := os.CreateTemp(dir, "."+name+"-*.tmp")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	if _, err := tmp.Write(src); err != nil {
		tmp.Close()
		return false, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return false, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return false, err
	}
	return true, nil
}

// UpToDate reports whether dir/name holds src (is absent when src is nil).
func UpToDate(dir, name string, src []byte) (bool, error) {
	old, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return src == nil, nil
	}
	if err != nil {
		return false, err
	}
	return src != nil && bytes.Equal(old, src), nil
}
