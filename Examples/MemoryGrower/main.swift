await MemoryGrowerDelegate.main()
