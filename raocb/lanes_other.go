//go:build purego || !amd64

package raocb

import "github.com/faelabs/fae/batch"

// batchLanes reports that there are no lane kernels here.
func (a *AEAD) batchLanes(d direction, msgs []batch.Message) bool { return false }
