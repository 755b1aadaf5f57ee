import LifebusCLI

LifebusCommand.runAsMain()
