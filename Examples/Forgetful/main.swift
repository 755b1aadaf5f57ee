await ForgetfulDelegate.main()
