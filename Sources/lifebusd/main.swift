import LifebusDaemon

LifebusDaemon.main()
