//go:build purego || !(amd64 || arm64)

package raocb

func (a *AEAD) kernel(d direction, dst, src []byte, x, sum *[blockSize]byte) {
	a.blocksGeneric(d, dst, src, x, sum)
}
