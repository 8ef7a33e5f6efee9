@_exported import DICore
@_exported import DIDiagnostics
@_exported import DIPropertyWrappers
@_exported import DIScopes
