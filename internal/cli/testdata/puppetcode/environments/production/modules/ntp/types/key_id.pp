type Ntp::Key_id = Integer[1, 65534]
