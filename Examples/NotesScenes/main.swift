await NotesScenesDelegate.main()
