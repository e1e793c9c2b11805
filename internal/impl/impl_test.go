package impl

import (
	"slices"
	"testing"
)

func TestSelect(t *testing.T) {
	a, b := true, false
	Register("impltest-pkg", "fast", &a)
	Register("impltest-pkg", "absent", &b)
	if got := List("impltest-pkg"); !slices.Equal(got, []string{"fast"}) {
		t.Fatalf("List = %v", got)
	}
	if !slices.Contains(Packages(), "impltest-pkg") {
		t.Errorf("Packages = %v", Packages())
	}
	if Select("impltest-pkg", "absent") {
		t.Error("selected a kernel the CPU lacks")
	}
	if !Select("impltest-pkg", "generic") || a || b {
		t.Error("generic left a kernel enabled")
	}
	if !Select("impltest-pkg", "fast") || !a || b {
		t.Error("fast not enabled alone")
	}
	Select("impltest-pkg", "generic")
	Reset("impltest-pkg")
	if !a || b {
		t.Error("Reset did not restore availability")
	}
}

func TestSave(t *testing.T) {
	a, b := true, true
	Register("impltest-save", "one", &a)
	Register("impltest-save", "two", &b)
	Select("impltest-save", "two")
	restore := Save()
	Reset("impltest-save")
	restore()
	if a || !b {
		t.Errorf("restored %v %v, want false true", a, b)
	}
}
