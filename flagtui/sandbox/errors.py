"""The error body of the contract, `{id, name, message}`, and the exception that carries it."""

from __future__ import annotations

import uuid

from starlette.responses import JSONResponse

NAMES = {
    400: "ValidationError",
    401: "AuthenticationRequired",
    403: "NoAccessError",
    404: "NotFoundError",
    405: "MethodNotAllowedError",
    413: "PayloadTooLargeError",
    415: "ContentTypeerror",  # sic: the contract's spelling
    500: "InternalError",
}


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def response(self) -> JSONResponse:
        return error_response(self.status, self.message)


def error_response(status: int, message: str) -> JSONResponse:
    body = {"id": str(uuid.uuid4()), "name": NAMES.get(status, "Error"), "message": message}
    return JSONResponse(body, status_code=status)


def bad_request(message: str) -> ApiError:
    return ApiError(400, message)


def not_found(message: str) -> ApiError:
    return ApiError(404, message)
