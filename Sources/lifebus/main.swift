import LifebusCLI

OneShotCommand.runIfOneShot()
await LifebusCommand.runAsMain()
