//go:build unix

package boundedfile

import (
	"os"
	"syscall"
)

const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
