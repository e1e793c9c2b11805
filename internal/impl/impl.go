// Package impl records which kernels exist on this machine, so tests can run
// every one of them. Packages register their kernels at init; production code
// never calls Select.
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
// kernel. Names are lower case and unique within pkg.
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

// Reset enables every available kernel of pkg again.
func Reset(pkg string) {
	for _, k := range kernels {
		if k.pkg == pkg {
			*k.enabled = k.available
		}
	}
}
