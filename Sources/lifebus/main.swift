import LifebusCLI

await LifebusCommand.runAsMain()
