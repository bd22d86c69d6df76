"""The Slack edge: slack-bolt in HTTP mode, pure converters beside it."""
