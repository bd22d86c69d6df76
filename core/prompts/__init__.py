"""The LLM prompts, one module per stage, each with the parser that validates the model's reply.

Each module holds its prompt as plain text (reviewed as text), a `messages(...)` builder and a
`parse(text)` that raises `ValueError` on anything the stage cannot use.
"""
