"""The Teams edge: botbuilder `ActivityHandler` + `CloudAdapter`, pure converters beside it."""
