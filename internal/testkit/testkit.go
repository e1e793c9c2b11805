// Package testkit holds the small helpers the packages' tests share:
// reading the known-answer files in their testdata folders (Project
// Wycheproof's among them), and checking for panics.
package testkit

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Load decodes the JSON file testdata/name into v, or fails the test.
func Load(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// Wycheproof is the layout of Project Wycheproof's AEAD test files
// (aes_gcm_test.json, aes_ccm_test.json), for Load. Sizes are in bits;
// strings are hex.
type Wycheproof struct {
	NumberOfTests int
	TestGroups    []struct {
		KeySize, IvSize, TagSize int
		Tests                    []struct {
			TcID                       int `json:"tcId"`
			Key, IV, AAD, Msg, CT, Tag string
			Result                     string // "valid" or "invalid"
			Flags                      []string
		}
	}
}

// Hex decodes s, or fails the test.
func Hex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// MustPanic fails the test if f returns without panicking; what names the
// call in the error.
func MustPanic(t testing.TB, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}
