import LifebusDaemon

LifebusDaemonCommand.main()
