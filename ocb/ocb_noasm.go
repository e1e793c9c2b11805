//go:build purego || !(amd64 || arm64)

package ocb

func (a *AEAD) kernel(d direction, dst, src []byte, off, sum *block, i uint64) {
	a.blocksGeneric(d, dst, src, off, sum, i)
}
