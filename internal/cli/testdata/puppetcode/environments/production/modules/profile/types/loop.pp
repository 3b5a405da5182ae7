type Profile::Loop = Profile::Loop
