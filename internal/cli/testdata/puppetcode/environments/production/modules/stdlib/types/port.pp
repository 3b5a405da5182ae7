type Stdlib::Port = Integer[0, 65535]
