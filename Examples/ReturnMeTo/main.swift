await ReturnMeToDelegate.main()
