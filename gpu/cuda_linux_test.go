package gpu

import (
	"errors"
	"strings"
	"testing"
)

// TestNoDriverWraps checks that, without a CUDA driver, Available's error
// wraps the loader's instead of quoting its text.
func TestNoDriverWraps(t *testing.T) {
	err := Available()
	if err == nil || !strings.Contains(err.Error(), "no CUDA driver") {
		t.Skip("a CUDA driver loads here")
	}
	if errors.Unwrap(err) == nil {
		t.Errorf("Available() = %q wraps nothing", err)
	}
}
