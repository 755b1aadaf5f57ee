// Placeholder until the module's first real file lands; delete it then.
enum LifebusIOPlaceholder {}
