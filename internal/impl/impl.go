// Package impl records which kernels exist on this machine, so tests can run
// every one of them (internal/impl/impltest). Every package with kernels of
// its own registers them at init, fastest first, under its own name ("aes",
// "ocb", ...), each with the variable its dispatch reads; production code
// never calls Select, so the variables keep what the CPU allows.
package impl

import (
	"slices"
	"strings"
)

type kernel struct {
	pkg, name string
	available bool
	enabled   *bool
}

var kernels []kernel

// Register records kernel name of pkg. enabled is the variable the package's
// dispatch reads; its value at registration says whether this CPU can run the
// kernel. Names are lower case and unique within pkg. A package registers its
// fastest kernel first, and with all of them enabled its dispatch runs that
// one wherever it applies.
func Register(pkg, name string, enabled *bool) {
	if name != strings.ToLower(name) || name == "" || name == "generic" {
		panic("impl: bad kernel name " + name)
	}
	for _, k := range kernels {
		if k.pkg == pkg && k.name == name {
			panic("impl: kernel registered twice: " + pkg + "/" + name)
		}
	}
	kernels = append(kernels, kernel{pkg, name, *enabled, enabled})
}

// List returns the kernels of pkg that this CPU can run, in registration
// order. The portable code, named "generic", is not listed.
func List(pkg string) []string {
	var names []string
	for _, k := range kernels {
		if k.pkg == pkg && k.available {
			names = append(names, k.name)
		}
	}
	return names
}

// Packages returns the packages that registered kernels, in registration
// order.
func Packages() []string {
	var pkgs []string
	for _, k := range kernels {
		if !slices.Contains(pkgs, k.pkg) {
			pkgs = append(pkgs, k.pkg)
		}
	}
	return pkgs
}

// Select enables only kernel name of pkg ("generic" enables none) and reports
// whether it is available. Only tests call it.
func Select(pkg, name string) bool {
	if name != "generic" && !slices.Contains(List(pkg), name) {
		return false
	}
	for _, k := range kernels {
		if k.pkg == pkg {
			*k.enabled = k.name == name
		}
	}
	return true
}

// Save returns a function that gives every kernel back the state it has
// now, enabled or not.
func Save() (restore func()) {
	saved := make([]bool, len(kernels))
	for i, k := range kernels {
		saved[i] = *k.enabled
	}
	return func() {
		for i, k := range kernels[:len(saved)] {
			*k.enabled = saved[i]
		}
	}
}

// Reset enables every available kernel of pkg again.
func Reset(pkg string) {
	for _, k := range kernels {
		if k.pkg == pkg {
			*k.enabled = k.available
		}
	}
}
