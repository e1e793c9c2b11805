package raocb

import (
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

func TestParallelMatchesSerial(t *testing.T) {
	aeadtest.TestParallel(t, ParallelThreshold, []int{16, 24, 32}, New)
}
