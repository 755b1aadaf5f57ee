PidReuseDrill.main()
