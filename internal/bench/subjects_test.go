package bench

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/faelabs/fae"
)

// TestRegisteredCode checks that a registered algorithm's row is labelled
// with whose code fae.New returns, read from the package of its concrete
// type: fae's own packages, golang.org/x/crypto, or the standard library.
// When a registry entry changes hands, this fails until registeredCode
// follows.
func TestRegisteredCode(t *testing.T) {
	for _, info := range fae.Algorithms() {
		a, err := fae.New(info.Name, make([]byte, info.KeySize))
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		typ := reflect.TypeOf(a)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		pkg := typ.PkgPath()
		var owner string
		switch {
		case pkg == "github.com/faelabs/fae" || strings.HasPrefix(pkg, "github.com/faelabs/fae/"):
			owner = implFae
		case strings.HasPrefix(pkg, "golang.org/x/crypto/"):
			owner = implXCrypto
		case pkg != "" && !strings.Contains(strings.Split(pkg, "/")[0], "."):
			owner = implGo
		default:
			t.Errorf("%s: fae.New returns a %v, from package %q, whose owner this test does not know", info.Name, typ, pkg)
			continue
		}
		if got := registeredImpl(info.Name); got != owner {
			t.Errorf("%s is labelled %q, but fae.New returns a %v from package %s (%q)", info.Name, got, typ, pkg, owner)
		}
	}
	for name := range registeredCode {
		if !slices.ContainsFunc(fae.Algorithms(), func(i fae.Info) bool { return i.Name == name }) {
			t.Errorf("registeredCode names %s, which is not registered", name)
		}
	}
}

// TestPlanLabels checks that a registry entry that is another library's
// code is measured once, under that library's name, and never as fae's, and
// that fae's own code is measured beside its peers.
func TestPlanLabels(t *testing.T) {
	for _, tc := range []struct {
		alg  string
		want []string
	}{
		{"aes-128-gcm", []string{"aes-128-ctr/fae", "aes-128-gcm/fae", "aes-128-gcm/go"}},
		{"aes-256-gcm", []string{"aes-256-ctr/fae", "aes-256-gcm/fae", "aes-256-gcm/go"}},
		{"xaes-256-gcm", []string{"aes-256-ctr/fae", "xaes-256-gcm/fae"}},
		{"chacha20-poly1305", []string{"aes-256-ctr/fae", "chacha20-poly1305/x/crypto"}},
		{"lea-256-gcm", []string{"aes-256-ctr/fae", "lea-256-gcm/fae"}},
		{"aes-128-ocb3", []string{"aes-128-ctr/fae", "aes-128-ocb3/fae", "aes-128-ocb3/protonmail"}},
	} {
		p, err := makePlan([]string{tc.alg})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range p.subjects {
			got = append(got, s.alg+"/"+s.impl)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: subjects %v, want %v", tc.alg, got, tc.want)
		}
	}
}
