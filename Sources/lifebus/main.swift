import LifebusCLI

ContainmentGuardEntry.runIfRequested()  // a subscribe's containment guard is this program run again
OneShotCommand.runIfOneShot()
await LifebusCommand.runAsMain()
