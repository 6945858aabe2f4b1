def openapi_document() -> dict:
    return {}
