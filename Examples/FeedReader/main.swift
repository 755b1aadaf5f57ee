await FeedReaderDelegate.main()
