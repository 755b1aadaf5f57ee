await DeepThoughtsDelegate.main()
