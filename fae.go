// Package fae is a registry of fast authenticated encryption algorithms: it
// makes a cipher.AEAD from an algorithm's name, a key and optional sizes.
//
// The algorithms are implemented in fae's own packages, such as ocb and gcm,
// except ChaCha20-Poly1305, golang.org/x/crypto's, a baseline. Algorithms
// lists them with their sizes. Every AEAD New returns is immutable and safe
// for concurrent use; like the standard library's, its Seal and Open panic
// on a nonce of the wrong length, on inexact overlap of input and output,
// and on output that overlaps the additional data. Where Info.Batch is true
// it also implements batch.AEAD, many messages per call.
package fae

import (
	"crypto/cipher"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/faelabs/fae/internal/sizes"
)

// Info describes a registered algorithm. All sizes are in bytes.
type Info struct {
	Name       string
	KeySize    int
	NonceSize  int   // default
	TagSize    int   // default
	NonceSizes []int // every allowed size, ascending
	TagSizes   []int // every allowed size, ascending
	Note       string
	Batch      bool // the AEAD New returns also implements batch.AEAD
}

// An Option changes a parameter of the AEAD New makes.
type Option func(*config)

type config struct {
	nonceSize, tagSize, parallelism int
}

// WithTagSize sets the tag size in bytes; it must be one of the algorithm's
// Info.TagSizes.
func WithTagSize(n int) Option {
	return func(c *config) { c.tagSize = n }
}

// WithNonceSize sets the nonce size in bytes; it must be one of the
// algorithm's Info.NonceSizes.
func WithNonceSize(n int) Option {
	return func(c *config) { c.nonceSize = n }
}

// WithParallelism sets how many goroutines may work on one large message;
// it must be at least 1, the default. The OCB3, RAOCB and GCM algorithms
// (XAES-256-GCM excepted) split messages and associated data of 256 KiB or
// more, with output identical to the serial result; algorithms that do not
// split messages accept and ignore it, so that callers can set it for any
// name.
func WithParallelism(n int) Option {
	return func(c *config) { c.parallelism = n }
}

// New returns the AEAD of the named algorithm with the given key, using the
// algorithm's default nonce and tag sizes unless options set them. It
// returns an error, and never panics, for an unknown name (the error lists
// the known ones), a key of the wrong length or a size the algorithm does
// not allow. The AEAD keeps no reference to key.
func New(name string, key []byte, opts ...Option) (cipher.AEAD, error) {
	alg, ok := lookup(name)
	if !ok {
		names := make([]string, len(registry))
		for i, a := range registry {
			names[i] = a.info.Name
		}
		slices.Sort(names)
		return nil, fmt.Errorf("fae: unknown algorithm %q (known: %s)", name, strings.Join(names, ", "))
	}
	info := &alg.info
	c := config{nonceSize: info.NonceSize, tagSize: info.TagSize, parallelism: 1}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	switch {
	case len(key) != info.KeySize:
		return nil, fmt.Errorf("fae: %s: key is %d bytes, want %d", name, len(key), info.KeySize)
	case !slices.Contains(info.NonceSizes, c.nonceSize):
		return nil, fmt.Errorf("fae: %s: nonce size %d not allowed (allowed: %s)", name, c.nonceSize, sizes.Format(info.NonceSizes))
	case !slices.Contains(info.TagSizes, c.tagSize):
		return nil, fmt.Errorf("fae: %s: tag size %d not allowed (allowed: %s)", name, c.tagSize, sizes.Format(info.TagSizes))
	case c.parallelism < 1:
		return nil, errors.New("fae: parallelism must be at least 1")
	}
	a, err := alg.new(key, c.nonceSize, c.tagSize, c.parallelism)
	if err != nil {
		return nil, fmt.Errorf("fae: %s: %w", name, err)
	}
	return a, nil
}

// Algorithms returns every registered algorithm, sorted by name. The result
// is the caller's to modify.
func Algorithms() []Info {
	infos := make([]Info, len(registry))
	for i, a := range registry {
		infos[i] = a.info
		infos[i].NonceSizes = slices.Clone(a.info.NonceSizes)
		infos[i].TagSizes = slices.Clone(a.info.TagSizes)
	}
	slices.SortFunc(infos, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	return infos
}

func lookup(name string) (*algorithm, bool) {
	for i := range registry {
		if registry[i].info.Name == name {
			return &registry[i], true
		}
	}
	return nil, false
}
