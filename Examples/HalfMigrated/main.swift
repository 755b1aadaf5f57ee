await HalfMigratedDelegate.main()
