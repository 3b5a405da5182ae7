//go:build !unix

package boundedfile

import "os"

const openFlags = os.O_RDONLY
