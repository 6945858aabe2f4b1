"""The error body of the contract, `{id, name, message}`, and the exception that carries it."""

from __future__ import annotations

import uuid

from starlette.responses import JSONResponse, Response

NAMES = {
    400: "ValidationError",
    401: "AuthenticationRequired",
    403: "NoAccessError",
    404: "NotFoundError",
    409: "NameExistsError",
    413: "PayloadTooLargeError",
    415: "ContentTypeerror",  # sic: the contract's spelling
    500: "InternalError",
}


class ApiError(Exception):
    """`name`: where real Unleash names the error more precisely than the status does."""

    def __init__(
        self, status: int, message: str, name: str | None = None, details: str | None = None
    ) -> None:
        """`details`: the one entry of real Unleash's `details` list, where it says more than
        `message` (a request schema's refusal); an empty `message` with no name: no body."""
        super().__init__(message)
        self.status = status
        self.message = message
        self.name = name
        self.details = details

    def response(self) -> Response:
        if not self.message and self.name is None:
            return Response(status_code=self.status)
        return error_response(self.status, self.message, self.name, self.details)


def error_response(
    status: int, message: str, name: str | None = None, details: str | None = None
) -> JSONResponse:
    body: dict[str, object] = {
        "id": str(uuid.uuid4()),
        "name": name or NAMES.get(status, "Error"),
        "message": message,
    }
    if details is not None:
        body["details"] = [{"message": details}]
    return JSONResponse(body, status_code=status)


def bad_request(message: str) -> ApiError:
    return ApiError(400, message)


def not_found(message: str) -> ApiError:
    return ApiError(404, message)


def path_not_available(path: str) -> JSONResponse:
    """Real Unleash's answer to a path it does not serve, or serves with other methods."""
    message = f"The path you were looking for ({path}) is not available."
    body = {
        "id": str(uuid.uuid4()),
        "name": "NotFoundError",
        "message": message,
        "details": [{"message": message}],
    }
    return JSONResponse(body, status_code=404)
