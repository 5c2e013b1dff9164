// The admin API's paths and schemas as TypeScript types, generated from docs/api/admin.openapi.yaml by scripts/web-types.ts: do not edit.

export interface paths {
    "/api/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The OpenAPI document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/yaml": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with e-mail and password
         * @description An unknown e-mail and a wrong password get the same answer, in about the same time. Accounts belong to one project, and an e-mail may have accounts in several: the password picks the account it opens. When it opens several (the same person with the same password in several projects), the answer is 409 project-choice-required naming them, and project_id picks one. Each e-mail (known or not) gets ADMIN_SIGN_IN_ATTEMPTS password checks (default 5) per window of ADMIN_SIGN_IN_WINDOW_S (default 900 s) that starts at its first attempt; further attempts are answered 429 with Retry-After until the window ends, even with the right password. A successful sign-in starts the count again. Each client address (the connection's, or X-Forwarded-For's as ADMIN_TRUST_PROXY says) gets ADMIN_SIGN_IN_ATTEMPTS_PER_IP sign-ins (default 30) per window, whatever e-mails they name, counted first; a success does not start that count again.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        password: string;
                        /**
                         * Format: uuid
                         * @description The project to sign in to, needed only when the e-mail and password open several.
                         */
                        project_id?: string;
                    };
                };
            };
            responses: {
                /** @description A session token valid for ADMIN_SESSION_MAX_AGE_S (default 12 hours). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            /** Format: uuid */
                            project_id: string;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                409: components["responses"]["Conflict"];
                429: components["responses"]["TooManyAttempts"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out this session
         * @description Ends the session whose token is sent, on the server: from then on that token is answered 401 unauthenticated ("this session was signed out"). Other sessions of the same operator (other devices) go on. A token from before sessions had ids cannot be told apart from the others, so signing it out ends every session of the operator.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The session is ended. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @constant */
                            signed_out: true;
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in operator, their project and the dashboard's settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Who is signed in. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Me"];
                    };
                };
                401: components["responses"]["Unauthorized"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the signed-in operator's password
         * @description Needs the current password (its checks count against the same per-e-mail limit as sign-in). Every session signed before the change ends at once, on every device; the answer carries a new session token for the caller.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        current_password: string;
                        new_password: string;
                    };
                };
            };
            responses: {
                /** @description The password is changed; a new session token (ADMIN_SESSION_MAX_AGE_S, default 12 hours) for this session. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                409: components["responses"]["Conflict"];
                429: components["responses"]["TooManyAttempts"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Operators of the signed-in operator's project */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The project's operators. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            operators: components["schemas"]["Operator"][];
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
            };
        };
        put?: never;
        /**
         * Create another operator of the same project
         * @description The new operator always joins the creating operator's project. Accounts belong to one project: an e-mail another project uses gets an account of this project like any other e-mail, and the answer is the same whether or not anyone else uses it. An e-mail this project already has is answered 201 with that operator, unchanged (its password is not replaced).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description The new operator, who can sign in right away (or the project's existing operator with that e-mail, unchanged). */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Operator"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/operators/{operator_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove another operator of the same project
         * @description Their sessions end at once. Nobody can remove themselves (409 cannot-remove-self), so a project always keeps an operator; an operator of another project is answered 404 like one that does not exist.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    operator_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The operator is removed. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            removed: string;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's campaigns, archived ones included */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Campaigns, oldest first. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            campaigns: components["schemas"]["Campaign"][];
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
            };
        };
        put?: never;
        /**
         * Create a campaign
         * @description Without `id` a random `xxxx-xxxx` id is chosen. Campaign ids are global, so a taken id is `409 campaign-exists`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id?: components["schemas"]["CampaignId"];
                        name: string;
                        currencies: components["schemas"]["Currencies"];
                        /** @description One of the currency keys; it orders the leaderboard. */
                        primary_currency: string;
                        /** Format: date-time */
                        starts_at?: string;
                        /**
                         * Format: date-time
                         * @description Later than starts_at.
                         */
                        ends_at?: string;
                    };
                };
            };
            responses: {
                /** @description The new campaign. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Campaign"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** One campaign */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The campaign. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Campaign"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change name, currencies, primary currency or dates
         * @description At least one field. `null` clears a date. A currency that already has points (score or ledger
         *     rows) cannot be removed (`409 currency-in-use`); rename it instead. An archived campaign is
         *     read-only (`409 campaign-archived`).
         *
         *     Events outside `[starts_at, ends_at)` earn nothing, so a change of either date (as stored, to the
         *     millisecond; the same instant in another offset is no change) queues a `recompute_job` (reason
         *     `campaign-dates`) in the same transaction, when a rule version is active or an activation is
         *     running: the scoring worker recomputes every score from the log under the version active when it
         *     starts the job and the dates as they are then. One queued job covers any number of date changes
         *     made before the worker starts it. `recompute_job` is that job, or `null` when no job was needed
         *     (the dates did not change, or there are no scores yet).
         *
         *     New dates that the active rule version, or one being activated, could not score while it could
         *     score the old ones (its decay range no longer reaches the events that can come, or its epoch lies
         *     more than 30 half-lives after the first awards) are `409 dates-outside-decay-range`, naming the
         *     version and the epoch's bound; nothing changes.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        currencies?: components["schemas"]["Currencies"];
                        primary_currency?: string;
                        /** Format: date-time */
                        starts_at?: string | null;
                        /** Format: date-time */
                        ends_at?: string | null;
                        /**
                         * @description What the public leaderboard ranks by, see docs/rewards.md.
                         * @enum {string}
                         */
                        leaderboard_ranking?: "earned" | "balance";
                    };
                };
            };
            responses: {
                /** @description The updated campaign, and the recompute its new dates queued. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CampaignUpdated"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive (never delete) a campaign
         * @description Keeps every row; the campaign becomes read-only. Archiving an archived campaign keeps the first time.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The archived campaign. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Campaign"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore an archived campaign */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The campaign, no longer archived. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Campaign"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/bad-words": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /**
         * The campaign's own bad words
         * @description The public leaderboard hides a user-set name containing any of them (case-insensitive substring), in addition to the service's default list.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The list. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BadWords"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        /**
         * Replace the campaign's bad words
         * @description Words are trimmed, lowercased and de-duplicated.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        bad_words: string[];
                    };
                };
            };
            responses: {
                /** @description The stored list. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BadWords"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's API keys (prefix, created, last used, revoked) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Keys, oldest first. The keys themselves are never shown again. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            api_keys: components["schemas"]["ApiKey"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        /** Create an API key (shown once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        label?: string;
                        /**
                         * @description May the key report events older than the ingest API's OCCURRED_AT_MAX_AGE_MS (default 24 hours), back to the campaign's start.
                         * @default false
                         */
                        backfill?: boolean;
                    };
                };
            };
            responses: {
                /** @description The key. `key` is returned only in this answer; only its SHA-256 hash is stored. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"] & {
                            key: string;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                key_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a key's label or whether it may backfill
         * @description At least one field; `label: null` clears the label. The ingest API sees the change within its
         *     key cache time (LOOKUP_CACHE_MS, default 5 s). A revoked key cannot be changed
         *     (`409 api-key-revoked`); a key of an archived campaign neither (`409 campaign-archived`).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    key_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        label?: string | null;
                        backfill?: boolean;
                    };
                };
            };
            responses: {
                /** @description The key after the change. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/api-keys/{key_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                key_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description Works on archived campaigns too. Revoking twice keeps the first time. The ingest API refuses the key from then on.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    key_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The revoked key. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's event types */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Event types, oldest first, retired ones included. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            event_types: components["schemas"]["EventType"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        /** Register an event type and get its reg_event_id */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Unique in the campaign. */
                        name: string;
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description The event type; raw events reference it by `reg_event_id`. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EventType"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/event-types/{reg_event_id}/retire": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                reg_event_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retire an event type
         * @description One-way. The row stays (logged events keep pointing at it); the ingest API refuses new events of a retired type, and new rule versions cannot use it.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    reg_event_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The retired event type. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EventType"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/rule-versions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's rule versions, newest first (without documents) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Rule versions. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rule_versions: components["schemas"]["RuleVersion"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        /**
         * Save a new rule version (draft)
         * @description The document is the rule version format of docs/rules.md. `campaignId` and `version` are
         *     assigned by the server (whatever the document says). Besides the engine's schema, every
         *     currency must be a campaign currency, `primaryCurrency` the campaign's primary currency, and
         *     every `regEventId` a registered, not retired event type of the campaign. An invalid document
         *     is `400 rule-version-invalid` naming the first problem (`document.rules[0].base.points must be
         *     greater than 0`); `POST .../rule-versions/validate` lists them all.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DocumentBody"];
                };
            };
            responses: {
                /** @description The stored version, with its document as it will be used (defaults filled in). */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RuleVersionWithDocument"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/rule-versions/validate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a rule document and list every problem, without saving */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DocumentBody"];
                };
            };
            responses: {
                /** @description `valid` and the issues (`path` like `rules[0].base.points`, and the rule it breaks). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            valid: boolean;
                            issues: components["schemas"]["RuleIssue"][];
                            /** @description The document as it would be stored (only when valid). */
                            document?: Record<string, unknown>;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/rule-versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                version: components["parameters"]["Version"];
            };
            cookie?: never;
        };
        /** One rule version with its document */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    version: components["parameters"]["Version"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The version. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RuleVersionWithDocument"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/rule-versions/{version}/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                version: components["parameters"]["Version"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Leaderboard diff of this version against the active one, without committing anything
         * @description Computes the scores a recompute would serve under the active version (nothing, when none is
         *     active) and under this version, with the rules engine's dry-run helper, and returns every
         *     user whose rank or points would change. Both sides count what the scoring worker counts: the
         *     whole event log, each event for the user who owns its identity now, only events between the
         *     campaign's starts_at and ends_at, no excluded user (nor referral shares or budget their events
         *     took), and the operator adjustments on top. So points_before is what the read API shows now
         *     and points_after what it shows once this version is active. Logs longer than
         *     DRY_RUN_MAX_EVENTS are refused (`409 log-too-large`).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    version: components["parameters"]["Version"];
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description When decayed totals are compared (default: now).
                         */
                        at?: string;
                        /** @description Default: the campaign's primary currency. */
                        currency?: string;
                        /**
                         * @description Most moves returned.
                         * @default 100
                         */
                        limit?: number;
                    };
                };
            };
            responses: {
                /** @description The diff. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DryRun"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/rule-versions/{version}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                version: components["parameters"]["Version"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a version (queues a background recompute)
         * @description Queues a `recompute_job` (reason `rule-activation`). The scoring worker recomputes every score
         *     from the log under this version and then switches to it atomically; until then the current
         *     scores stay served and the version stays `draft` (or `superseded`, when rolling back). Watch
         *     the job with `GET .../recompute-jobs/{job_id}`. Refused while another activation is queued or
         *     running (`409 recompute-in-progress`; of two activations sent at once one is queued and the
         *     other is refused so) and for the active version (`409 rule-version-active`); a version whose
         *     decay epoch no longer works now is `400 rule-version-invalid`. A campaign has at most one
         *     active version; the database refuses a second.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    version: components["parameters"]["Version"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The queued job. */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            version: number;
                            /**
                             * @description The version's status now (unchanged until the switch).
                             * @enum {string}
                             */
                            status: "draft" | "superseded";
                            job: components["schemas"]["RecomputeJob"];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/recompute-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's recompute jobs, newest first (at most 50) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Jobs. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            recompute_jobs: components["schemas"]["RecomputeJob"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/recompute-jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                job_id: string;
            };
            cookie?: never;
        };
        /** Progress of one recompute job */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    job_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job as the worker last recorded it. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RecomputeJob"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /**
         * Find a user by any of their identities
         * @description The account id is normalised exactly as the ingest API does (EVM addresses lowercased, e-mail domains lowercased, ...). The EVM zero address, which ingest refuses, is found too (an identity stored before that rule).
         */
        get: {
            parameters: {
                query: {
                    identity_type: components["schemas"]["IdentityType"];
                    account_id: string;
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /** One user with identities, referral link and scores */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    user_id: components["parameters"]["UserId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the display name and/or the referrer
         * @description `display_name`: 1-64 characters (trimmed), or `null` to clear it (the public board then shows
         *     the X username or the anonymous name). Refused (400 validation-failed, the message naming the
         *     rule): bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C),
         *     zero-width characters (U+200B-U+200D, U+2060, U+FEFF), line and paragraph separators (U+2028,
         *     U+2029), control and other invisible format characters, unpaired surrogates, and more than 2
         *     combining marks in a row (after NFC). A name the boards would hide is `400
         *     display-name-not-allowed`, by the checks of the portal API's PATCH /me: one containing a word of
         *     BAD_WORDS_FILE or of the campaign's bad words ("display_name contains a word this campaign does
         *     not allow on its boards"), or one that looks like an e-mail address, a wallet address or a
         *     provider id, or holds one of the user's own account ids ("display_name looks like an e-mail
         *     address, a wallet address or an account id, which boards never show"). `referrer_id`: a user of the same
         *     campaign, not the user itself, and not one the user already refers directly or through others
         *     (no cycles). A referral link is set once, with the time it was made (`referred_at`); changing or
         *     clearing it is `409 referrer-already-set`, because referral points already paid depend on it.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    user_id: components["parameters"]["UserId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        display_name?: string | null;
                        /** Format: uuid */
                        referrer_id?: string | null;
                    };
                };
            };
            responses: {
                /** @description The user after the change. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/users/{user_id}/identities": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link an identity to the user (merging it in when another user has it)
         * @description A new identity is created for the user (`201`). An identity the user already has is left as
         *     is, except `handle` (`200`). An identity of another user of the campaign is refused with
         *     `409 identity-held` unless the body says `move: true`; then it is moved to this user
         *     with every event it ever sent (`200`, `moved_from_user_id`): the log keeps its rows, and a
         *     `recompute_job` (reason `identity-link`) recomputes scores attributing each event to the
         *     identity's current owner; one queued job covers any number of moves. An identity whose events
         *     paid its holder points does not move away from a user holding a redemption that is not rejected: `409
         *     identity-points-spent`, nothing changes (the spends stay with that user; rejecting them first
         *     refunds the points and allows the move). `handle` (the X username, shown on the public
         *     leaderboard) is only allowed for `X_PROVIDER_ID`. The EVM zero address, which nobody holds, is
         *     refused as on ingest (400 invalid-account-id).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    user_id: components["parameters"]["UserId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        identity_type: components["schemas"]["IdentityType"];
                        account_id: string;
                        handle?: string;
                        /**
                         * @description Move the identity when another user of the campaign holds it.
                         * @default false
                         */
                        move?: boolean;
                        /**
                         * Format: uuid
                         * @description With move, the holder the move was agreed for: held by another user, it is identity-held (409).
                         */
                        move_from_user_id?: string;
                    };
                };
            };
            responses: {
                200: components["responses"]["Linked"];
                201: components["responses"]["Linked"];
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/users/{user_id}/identities/{identity_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                user_id: components["parameters"]["UserId"];
                identity_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink an identity (it becomes a user of its own)
         * @description The identity and its events move to a new user; a recompute is queued as for a link. A user's only identity cannot be unlinked (`409 last-identity`), nor one whose events paid the user points while the user holds a redemption that is not rejected (`409 identity-points-spent`).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    user_id: components["parameters"]["UserId"];
                    identity_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user after the unlink, and the new user now holding the identity. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: components["schemas"]["User"];
                            /** Format: uuid */
                            detached_user_id: string;
                            recompute_job: components["schemas"]["RecomputeJob"] | null;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        options?: never;
        head?: never;
        /** Set or clear the X username of an X_PROVIDER_ID identity */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    user_id: components["parameters"]["UserId"];
                    identity_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        handle: string | null;
                    };
                };
            };
            responses: {
                /** @description The identity. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Identity"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/users/{user_id}/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /** Where each of the user's points came from (ledger entries with lineage), newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description `next_before` of the previous page: an entry id, a whole number from 1 to 9223372036854775807 (PostgreSQL's bigint); anything else is 400 `validation-failed`. */
                    before?: string;
                    /** @description A version number, or `all`. Default: the active version (all entries when none is active). */
                    rule_version?: number | "all";
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    user_id: components["parameters"]["UserId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of entries. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Ledger"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/leaderboard": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /**
         * A fresh leaderboard preview for operators
         * @description Read straight from the score table (no cache), with identities, for any currency of the
         *     campaign. Ordered like the public board under the campaign's `leaderboard_ranking`: the chosen
         *     currency's total (`earned`) or balance, total - spent floored at 0 (`balance`), descending, ties
         *     sharing a rank (1, 1, 3) and listed earliest-to-reach first. Decaying currencies show values
         *     decayed to now. Every entry shows spent and balance per currency next to its scores.
         */
        get: {
            parameters: {
                query?: {
                    currency?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The preview. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LeaderboardPreview"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/chart": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /**
         * Points over time of the top users
         * @description Running totals of paid points (ledger entries of the active version) per UTC hour or day, placed
         *     at the time each event happened (`occurred_at`, so a backfilled event counts on its own day, not
         *     on the day it arrived), for the `top` users of the currency's board, in the board's order (the
         *     campaign's `leaderboard_ranking`: earned total or balance). A bucket without points shows the
         *     total so far.
         */
        get: {
            parameters: {
                query?: {
                    currency?: string;
                    top?: number;
                    bucket?: "hour" | "day";
                    /** @description Number of buckets (default 30 days or 48 hours). */
                    points?: number;
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The series. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Chart"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/csv-imports": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's latest CSV imports (at most 20), with progress */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Imports, newest first. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            csv_imports: components["schemas"]["CsvImport"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        /**
         * Upload a CSV file of earn events through the ingest pipeline
         * @description The body is the file itself (`Content-Type: text/csv`), streamed: the header row names the
         *     earn-event fields (`account_id,identity_type,amount,reg_event_id`), every row is validated
         *     exactly like `POST /api/rest/earn-event`. `all-or-nothing` (default) publishes nothing when
         *     any row is bad; `accept-valid` publishes the good rows. Progress is readable while the upload
         *     runs (`GET .../csv-imports`); the answer comes when the import has finished and lists the
         *     first 1000 bad rows with their line numbers (the header is line 1) and reasons.
         *     Whole-file failures: `invalid-utf8`, `csv-invalid-header`, `csv-malformed`, `too-many-rows`,
         *     `payload-too-large` and `invalid-body` (the upload cannot be read to its end), all 400;
         *     `bus-unavailable` and `service-unavailable` (the import record or the event types cannot be read), 503.
         */
        post: {
            parameters: {
                query?: {
                    mode?: "all-or-nothing" | "accept-valid";
                    file_name?: string;
                };
                header?: {
                    /** @description Names the upload's rows, as on the ingest API's CSV upload: the same file sent again with the same key is the same events, counted once. 1 to 255 printable ASCII characters without spaces, else invalid-idempotency-key (400). */
                    "Idempotency-Key"?: string;
                };
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "text/csv": string;
                };
            };
            responses: {
                /** @description The finished import (`done` or `rejected`) and its bad rows. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            import: components["schemas"]["CsvImport"];
                            invalid_rows: components["schemas"]["CsvRowError"][];
                            invalid_rows_truncated: boolean;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                503: components["responses"]["Unavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/csv-imports/{import_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                import_id: string;
            };
            cookie?: never;
        };
        /** Progress and row errors of one import */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    import_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The import (`sample_errors` holds its first 100 bad rows). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CsvImport"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/exclusions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The exclusions in force in the campaign (its own and its project's), newest first, at most 1000 */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Exclusions and how many there are in all. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExclusionList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        /**
         * Exclude an identity or a user from the campaign
         * @description The identity is normalised as ingest does. From the answer on, the user who owns it (or the
         *     user) earns nothing and is absent from every leaderboard of the campaign; the ingest API answers
         *     their events as usual. A recompute (reason `exclusion`) replays the log without their events.
         *     An identity or user excluded already is `409 exclusion-exists`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        identity_type: components["schemas"]["IdentityType"];
                        account_id: string;
                        reason: string;
                    } | {
                        /** Format: uuid */
                        user_id: string;
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description The exclusion and the queued recompute (null when no rule version is active). */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            exclusion: components["schemas"]["Exclusion"];
                            recompute_job: components["schemas"]["RecomputeJob"] | null;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/exclusions/csv": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exclude a CSV list of identities from the campaign
         * @description The body is the file (`text/csv`, at most 5 MB and 50,000 rows): a header `identity_type,account_id`
         *     and optionally `reason`; the `reason` query parameter is the reason of rows without one.
         *     `all-or-nothing` (default) adds nothing when any row is bad; `accept-valid` adds the good rows.
         *     Identities excluded already are counted in `already_excluded`.
         */
        post: {
            parameters: {
                query?: {
                    mode?: "all-or-nothing" | "accept-valid";
                    reason?: string;
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "text/csv": string;
                };
            };
            responses: {
                200: components["responses"]["ExclusionImport"];
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/exclusions/{exclusion_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                exclusion_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Lift an exclusion of the campaign
         * @description The user earns again from now on; a recompute (reason `exclusion`) gives them back what their logged events earn.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    exclusion_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The lifted exclusion and the queued recompute. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lifted: components["schemas"]["Exclusion"];
                            recompute_job: components["schemas"]["RecomputeJob"] | null;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exclusions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's exclusions (identities excluded from every campaign of the project), newest first, at most 1000 */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Exclusions and how many there are in all. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExclusionList"];
                    };
                };
                401: components["responses"]["Unauthorized"];
            };
        };
        put?: never;
        /** Exclude an identity from every campaign of the project */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        identity_type: components["schemas"]["IdentityType"];
                        account_id: string;
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description The exclusion and the recompute queued in each campaign with an active rule version. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            exclusion: components["schemas"]["Exclusion"];
                            recompute_jobs: components["schemas"]["RecomputeJob"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exclusions/csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exclude a CSV list of identities (a sanctions or sybil list) from every campaign of the project
         * @description As `POST /api/campaigns/{campaign_id}/exclusions/csv`, for the whole project.
         */
        post: {
            parameters: {
                query?: {
                    mode?: "all-or-nothing" | "accept-valid";
                    reason?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "text/csv": string;
                };
            };
            responses: {
                200: components["responses"]["ExclusionImport"];
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exclusions/{exclusion_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                exclusion_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Lift a project-wide exclusion */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    exclusion_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The lifted exclusion and the recompute queued in each campaign with an active rule version. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            lifted: components["schemas"]["Exclusion"];
                            recompute_jobs: components["schemas"]["RecomputeJob"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's adjustments, newest first */
        get: {
            parameters: {
                query?: {
                    user_id?: string;
                    limit?: number;
                    /** @description An adjustment id from a previous page. */
                    before?: string;
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of adjustments; `next_before` pages on (null on the last page). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            adjustments: components["schemas"]["Adjustment"][];
                            next_before: string | null;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        /**
         * Grant or deduct points for a user, or reverse an earlier adjustment
         * @description A grant (`points` > 0) or deduction (`points` < 0) in one of the campaign's currencies, with no
         *     more decimal places than the currency has under the active rules. It shows in the user's scores
         *     at once (when a rule version is active) and every recompute adds it back. Adjustments are never
         *     changed or deleted: `reverses` makes a further adjustment of the opposite points, once per adjustment.
         *     A user holding the EVM zero address (stored before ingest refused it) gets none: `400 validation-failed`
         *     naming `user_id`; exclude the user instead.
         *     With an `Idempotency-Key`, a retry answers `200` with the adjustment as first answered and makes nothing.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retry safe: a request that made adjustments is remembered with its key for as long as the campaign, and the same request with the key answers the first answer again (the same key with another request or endpoint is idempotency-key-reused, 409). A request that made nothing is not remembered. 1 to 255 printable ASCII characters without spaces, else invalid-idempotency-key (400). */
                    "Idempotency-Key"?: components["parameters"]["AdjustmentIdempotencyKey"];
                };
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uuid */
                        user_id: string;
                        currency: string;
                        points: string;
                        reason: string;
                    } | {
                        reverses: string;
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description The adjustment first made with this Idempotency-Key, as it was first answered, with the header Idempotent-Replayed true. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Adjustment"];
                    };
                };
                /** @description The adjustment. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Adjustment"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/adjustments/csv": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bulk adjustments from a CSV file
         * @description The body is the file (`text/csv`, at most 5 MB and 50,000 rows) with the header
         *     `identity_type,account_id,currency,points,reason`; each row's user is the owner of the identity.
         *     `all-or-nothing` (default) makes no adjustment when any row is bad; `accept-valid` makes the good ones.
         *     With an `Idempotency-Key`, a retry of an upload that made adjustments answers its first answer and makes nothing.
         */
        post: {
            parameters: {
                query?: {
                    mode?: "all-or-nothing" | "accept-valid";
                };
                header?: {
                    /** @description Makes a retry safe: a request that made adjustments is remembered with its key for as long as the campaign, and the same request with the key answers the first answer again (the same key with another request or endpoint is idempotency-key-reused, 409). A request that made nothing is not remembered. 1 to 255 printable ASCII characters without spaces, else invalid-idempotency-key (400). */
                    "Idempotency-Key"?: components["parameters"]["AdjustmentIdempotencyKey"];
                };
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "text/csv": string;
                };
            };
            responses: {
                /** @description What the upload did and its bad rows (line numbers count the header as line 1). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "done" | "rejected";
                            /** Format: uuid */
                            import_id: string | null;
                            rows_read: number;
                            rows_valid: number;
                            rows_invalid: number;
                            created: number;
                            invalid_rows: components["schemas"]["ListRowError"][];
                            invalid_rows_truncated: boolean;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's audit trail, newest first */
        get: {
            parameters: {
                query?: {
                    action?: components["parameters"]["AuditAction"];
                    limit?: number;
                    /** @description An entry id from a previous page. */
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: components["responses"]["AuditPage"];
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's part of the audit trail, newest first */
        get: {
            parameters: {
                query?: {
                    action?: components["parameters"]["AuditAction"];
                    limit?: number;
                    /** @description An entry id from a previous page. */
                    before?: string;
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                200: components["responses"]["AuditPage"];
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/rewards": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's reward catalogue, oldest first (archived ones too) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every reward. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rewards: components["schemas"]["Reward"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        /**
         * Add a reward to the catalogue
         * @description A price in one of the campaign's currencies, an optional stock and per-user limit, an optional
         *     window `[redeemable_from, redeemable_until)`. `token_amount` (token base units per redemption, at most
         *     2^256 - 1) is required for `token-claim` rewards and refused for the others; `claim_method` (merkle, the default,
         *     or burn-voucher) only applies to them. Audited as `reward.create`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        description?: string;
                        /** @enum {string} */
                        kind: "voucher" | "token-claim" | "manual";
                        currency: string;
                        price: components["schemas"]["Price"];
                        stock?: number | null;
                        per_user_limit?: number | null;
                        /** Format: date-time */
                        redeemable_from?: string | null;
                        /** Format: date-time */
                        redeemable_until?: string | null;
                        token_amount?: string;
                        /** @enum {string} */
                        claim_method?: "merkle" | "burn-voucher";
                    };
                };
            };
            responses: {
                /** @description The reward. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Reward"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/rewards/{reward_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                reward_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a reward, restock it, or archive it (status archived) so it can no longer be redeemed
         * @description Kind, currency and token amount never change (make a new reward instead). A new `price` must fit the currency's
         *     decimal places under the active rule version; a price set under an earlier version with more places stays as it is
         *     until it is changed. Audited as `reward.update` with before and after.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    reward_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        description?: string;
                        price?: components["schemas"]["Price"];
                        stock?: number | null;
                        per_user_limit?: number | null;
                        /** Format: date-time */
                        redeemable_from?: string | null;
                        /** Format: date-time */
                        redeemable_until?: string | null;
                        /** @enum {string} */
                        status?: "active" | "archived";
                    };
                };
            };
            responses: {
                /** @description The reward. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Reward"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/rewards/{reward_id}/codes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                reward_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload voucher codes to a voucher reward's pool
         * @description A CSV (`text/csv`, header `code`) or JSON `{"codes": [...]}` (at most 50,000). Each code is trimmed
         *     and must be 1 to 200 characters, once in the upload and not yet in the pool (`duplicate-code`). Codes
         *     are stored as a SHA-256 hash and an AES-256-GCM ciphertext under VOUCHER_CODE_KEY, never in plain
         *     text, and are never answered to operators. `mode=all-or-nothing` (default) adds nothing when a row is
         *     bad; `accept-valid` adds the good rows. Audited as `reward.codes-upload` with counts only.
         *     Refused with `reward-not-voucher` for other kinds and `voucher-codes-unavailable` without VOUCHER_CODE_KEY.
         */
        post: {
            parameters: {
                query?: {
                    mode?: "all-or-nothing" | "accept-valid";
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    reward_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "text/csv": string;
                    "application/json": {
                        codes: string[];
                    };
                };
            };
            responses: {
                /** @description What the upload did and its bad rows (CSV lines count the header as line 1; JSON lines are positions from 1). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "done" | "rejected";
                            rows_read: number;
                            rows_valid: number;
                            rows_invalid: number;
                            added: number;
                            invalid_rows: components["schemas"]["ListRowError"][];
                            invalid_rows_truncated: boolean;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/redemptions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's redemptions with their lineage, newest first */
        get: {
            parameters: {
                query?: {
                    status?: "delivered" | "pending" | "fulfilled" | "rejected" | "claimable";
                    reward_id?: string;
                    user_id?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The redemptions (voucher codes are never shown to operators). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            redemptions: components["schemas"]["Redemption"][];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/redemptions/{redemption_id}/fulfil": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                redemption_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark a pending (manual) redemption fulfilled, with an optional note the user sees
         * @description Refused with `redemption-not-pending` unless the redemption is pending. Audited as `redemption.fulfil`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    redemption_id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        note?: string;
                    };
                };
            };
            responses: {
                /** @description The redemption. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Redemption"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/redemptions/{redemption_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                redemption_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a pending (manual) redemption with a reason the user sees; its points and its stock come back
         * @description Refused with `redemption-not-pending` unless the redemption is pending. Audited as `redemption.reject`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    redemption_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        note: string;
                    };
                };
            };
            responses: {
                /** @description The redemption. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Redemption"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/claim-epochs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        /** The campaign's token-claim epochs, newest first, with the claim contract they are published to */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The epochs. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            epochs: components["schemas"]["ClaimEpoch"][];
                            contract: string | null;
                            chain_id: number | null;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/claim-epochs/close": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close the open epoch into a Merkle tree and publish its root on chain
         * @description Under the campaign's apply lock the open epoch's claimable redemptions become one tree (one leaf per
         *     account, amounts summed; OpenZeppelin StandardMerkleTree of `["address", "uint256"]`), stored with
         *     its root (audited `claim-epoch.close`). The root is then published with CLAIMS_PUBLISHER_KEY to
         *     CLAIMS_CONTRACT (audited `claim-epoch.publish`). Codes: `claim-epoch-not-found` (no open epoch),
         *     `claim-epoch-empty`, `claims-not-configured`, `claims-wrong-chain`, `not-claims-owner` (CLAIMS_PUBLISHER_KEY
         *     does not own CLAIMS_CONTRACT), `epoch-root-already-set`; when the chain fails the epoch
         *     stays closed (`claims-publish-failed`, 503) and is published with the publish endpoint.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The published epoch. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClaimEpoch"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                503: components["responses"]["Unavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/claim-epochs/{epoch}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: components["parameters"]["CampaignId"];
                epoch: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a closed epoch's root again (after claims-publish-failed)
         * @description Refused with `claim-epoch-not-closed` for an open or published epoch, `claim-epoch-not-found` for an unknown one, and with the close endpoint's chain codes.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    campaign_id: components["parameters"]["CampaignId"];
                    epoch: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The published epoch. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClaimEpoch"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                503: components["responses"]["Unavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Exclusion: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            scope: "campaign" | "project";
            campaign_id: string | null;
            identity_type: components["schemas"]["IdentityType"] | null;
            account_id: string | null;
            /** Format: uuid */
            user_id: string | null;
            reason: string;
            /** @enum {string} */
            source: "manual" | "csv";
            /** Format: uuid */
            operator_id: string | null;
            created_at: components["schemas"]["Time"];
        };
        ExclusionList: {
            exclusions: components["schemas"]["Exclusion"][];
            total: number;
        };
        Adjustment: {
            id: string;
            campaign_id: components["schemas"]["CampaignId"];
            /** Format: uuid */
            user_id: string;
            currency: string;
            points: components["schemas"]["Decimal"];
            reason: string;
            /** Format: uuid */
            operator_id: string | null;
            operator_email: string;
            /** @description The adjustment this one reverses. */
            reverses_id: string | null;
            /** @description The adjustment that reversed this one. */
            reversed_by_id: string | null;
            /**
             * Format: uuid
             * @description The CSV upload it came from.
             */
            import_id: string | null;
            created_at: components["schemas"]["Time"];
        };
        ListRowError: {
            line: number;
            code: string;
            message: string;
        };
        AuditEntry: {
            id: string;
            campaign_id: string | null;
            /** Format: uuid */
            operator_id: string | null;
            operator_email: string;
            action: string;
            target: string | null;
            /** @description What the action changed */
            before: unknown;
            /** @description What the action changed */
            after: unknown;
            created_at: components["schemas"]["Time"];
        };
        Error: {
            error: {
                code: string;
                message: string;
            };
        };
        CampaignId: string;
        /** @description Currency key (lowercase identifier) -> display name. */
        Currencies: {
            [key: string]: string;
        };
        Decimal: string;
        /** @enum {string} */
        IdentityType: "EVM_ADDRESS" | "SOLANA_ADDRESS" | "BTC_ADDRESS" | "EMAIL" | "DISCORD_PROVIDER_ID" | "X_PROVIDER_ID" | "GITHUB_PROVIDER_ID";
        /** Format: date-time */
        Time: string;
        /** Format: date-time */
        NullableTime: string | null;
        Operator: {
            /** Format: uuid */
            id: string;
            /** Format: email */
            email: string;
            created_at: components["schemas"]["Time"];
        };
        Me: {
            operator: components["schemas"]["Operator"];
            project: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            settings: {
                /** @description The ingest API as integrators reach it (INGEST_PUBLIC_URL). */
                ingest_public_url: string;
                read_api_url: string;
            };
        };
        Campaign: components["schemas"]["CampaignFields"];
        CampaignUpdated: components["schemas"]["CampaignFields"] & {
            /** @description The recompute (reason campaign-dates) a change of the dates queued; null when none was needed. */
            recompute_job: components["schemas"]["RecomputeJob"] | null;
        };
        /** @description The fields of a campaign (Campaign is exactly these). */
        CampaignFields: {
            id: components["schemas"]["CampaignId"];
            name: string;
            currencies: components["schemas"]["Currencies"];
            primary_currency: string;
            /** @description Events that happened before it earn nothing (null: no start). */
            starts_at: components["schemas"]["NullableTime"];
            /** @description Events that happened at or after it earn nothing (null: no end). */
            ends_at: components["schemas"]["NullableTime"];
            archived_at: components["schemas"]["NullableTime"];
            bad_words: string[];
            /**
             * @description The leaderboard ranks by total (earned) or by total - spent (balance).
             * @enum {string}
             */
            leaderboard_ranking: "earned" | "balance";
            created_at: components["schemas"]["Time"];
        };
        /** @description Exact decimal text, more than 0, with no more decimal places than the currency has under the active rule version (the rule adjustments follow): `400 validation-failed` "price: xp has 2 decimal places; got 3". */
        Price: string;
        Reward: {
            /** Format: uuid */
            id: string;
            campaign_id: components["schemas"]["CampaignId"];
            name: string;
            description: string;
            /** @enum {string} */
            kind: "voucher" | "token-claim" | "manual";
            currency: string;
            price: string;
            /** @description Left in stock; null: unlimited. */
            stock: number | null;
            per_user_limit: number | null;
            redeemable_from: components["schemas"]["NullableTime"];
            redeemable_until: components["schemas"]["NullableTime"];
            /** @description Token base units per redemption (token-claim). */
            token_amount: string | null;
            /** @enum {string|null} */
            claim_method: "merkle" | "burn-voucher" | null;
            /** @enum {string} */
            status: "active" | "archived";
            /** @description Voucher codes not yet handed out (voucher rewards). */
            codes_available: number | null;
            created_at: components["schemas"]["Time"];
            updated_at: components["schemas"]["Time"];
        };
        Redemption: {
            /** Format: uuid */
            id: string;
            campaign_id: components["schemas"]["CampaignId"];
            /** Format: uuid */
            user_id: string;
            /** Format: uuid */
            reward_id: string;
            reward_name: string;
            /** @enum {string} */
            kind: "voucher" | "token-claim" | "manual";
            idempotency_key: string;
            /** @enum {string} */
            channel: "portal" | "api-key";
            currency: string;
            price: string;
            /** @description The user's balance in the currency just before */
            balance_before: string;
            /** @description balance_before - price. */
            balance_after: string;
            token_amount: string | null;
            /** @description The EVM address a token-claim pays out to. */
            account: string | null;
            claim_epoch: string | null;
            burn_voucher: null | {
                user: string;
                amount: string;
                nonce: string;
                /** @description Unix seconds. */
                expiry: string;
                signature: string;
            };
            /** @enum {string} */
            status: "delivered" | "pending" | "fulfilled" | "rejected" | "claimable";
            status_note: string | null;
            status_at: components["schemas"]["Time"];
            created_at: components["schemas"]["Time"];
            /** @description Always null here; only the owner sees a voucher code (portal API). */
            code: null;
        };
        ClaimEpoch: {
            /** @description The epoch number on chain. */
            epoch: string;
            /** @enum {string} */
            status: "open" | "closed" | "published";
            root: string | null;
            tx_hash: string | null;
            block_number: string | null;
            redemptions: number;
            token_amount: string;
            created_at: components["schemas"]["Time"];
            closed_at: components["schemas"]["NullableTime"];
            published_at: components["schemas"]["NullableTime"];
        };
        BadWords: {
            bad_words: string[];
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            /** @description Non-secret start of the key, e.g. pw_k3j5x2ab. */
            prefix: string;
            label: string | null;
            /** @description True: the key may report events with an occurred_at as far back as the campaign's start. False: at most OCCURRED_AT_MAX_AGE_MS (ingest API, default 24 hours) into the past. */
            backfill: boolean;
            created_at: components["schemas"]["Time"];
            last_used_at: components["schemas"]["NullableTime"];
            revoked_at: components["schemas"]["NullableTime"];
        };
        EventType: {
            /** Format: uuid */
            reg_event_id: string;
            name: string;
            description: string | null;
            created_at: components["schemas"]["Time"];
            retired_at: components["schemas"]["NullableTime"];
        };
        DocumentBody: {
            /** @description A rule version document (docs/rules.md). */
            document: Record<string, unknown>;
        };
        RuleIssue: {
            /** @description Where, e.g. "rules[0].base.points" ("" for the whole document). */
            path: string;
            /** @description The rule it breaks, e.g. "must be greater than 0". */
            message: string;
        };
        RuleVersion: {
            version: number;
            /** @enum {string} */
            status: "draft" | "active" | "superseded";
            created_at: components["schemas"]["Time"];
            activated_at: components["schemas"]["NullableTime"];
            rule_count: number;
            /** @description The latest activation job of this version. */
            activation_job: components["schemas"]["RecomputeJob"] | null;
        };
        RuleVersionWithDocument: components["schemas"]["RuleVersion"] & {
            document: Record<string, unknown>;
        };
        RecomputeJob: {
            /** Format: uuid */
            id: string;
            campaign_id: components["schemas"]["CampaignId"];
            rule_version: number;
            /**
             * @description rule-activation: a version is being activated; identity-link: an identity moved between users; campaign-dates: the campaign's dates changed; exclusion: an exclusion was added or lifted.
             * @enum {string}
             */
            reason: "rule-activation" | "identity-link" | "campaign-dates" | "exclusion" | "manual";
            /** @enum {string} */
            status: "queued" | "running" | "done" | "failed";
            events_total: number;
            events_done: number;
            progress: number;
            error: string | null;
            created_at: components["schemas"]["Time"];
            started_at: components["schemas"]["NullableTime"];
            finished_at: components["schemas"]["NullableTime"];
        };
        UserLabel: {
            /** @description The name the user set (the public board may hide it). */
            display_name: string | null;
            /** @description The user's first identity (operators only; never on the public board). */
            identity: null | {
                identity_type: components["schemas"]["IdentityType"];
                account_id: string;
                handle: string | null;
            };
        };
        DryRun: {
            currency: string;
            at: components["schemas"]["Time"];
            before_version: number | null;
            after_version: number;
            /** @description Events replayed. */
            events: number;
            users_before: number;
            users_after: number;
            unchanged: number;
            moves_total: number;
            moves: (components["schemas"]["UserLabel"] & {
                /** Format: uuid */
                user_id: string;
                rank_before: number | null;
                rank_after: number | null;
                /** @description Positive means up. */
                rank_change: number | null;
                points_before: components["schemas"]["Decimal"];
                points_after: components["schemas"]["Decimal"];
                points_change: components["schemas"]["Decimal"];
            })[];
        };
        Identity: {
            /** Format: uuid */
            id: string;
            identity_type: components["schemas"]["IdentityType"];
            account_id: string;
            /** @description The X username of an X_PROVIDER_ID identity. */
            handle: string | null;
            created_at: components["schemas"]["Time"];
        };
        Score: {
            currency: string;
            score: components["schemas"]["Decimal"];
            referral_score: components["schemas"]["Decimal"];
            total: components["schemas"]["Decimal"];
            lifetime: components["schemas"]["Decimal"];
            tier: string | null;
        };
        User: {
            /** Format: uuid */
            id: string;
            campaign_id: components["schemas"]["CampaignId"];
            display_name: string | null;
            /** Format: uuid */
            referrer_id: string | null;
            referred_at: components["schemas"]["NullableTime"];
            /** @description The user, or one of their identities, is excluded in this campaign or its project; they earn nothing and appear on no leaderboard. */
            excluded: boolean;
            created_at: components["schemas"]["Time"];
            identities: components["schemas"]["Identity"][];
            scores: components["schemas"]["Score"][];
        };
        Ledger: {
            /** Format: uuid */
            user_id: string;
            /** @description The version shown (null: all). */
            rule_version: number | null;
            next_before: string | null;
            entries: {
                id: string;
                rule_version: number;
                rule_id: string;
                /** @enum {string} */
                kind: "base" | "milestone" | "referral";
                currency: string;
                /** @description What the award would have paid without caps. */
                points: components["schemas"]["Decimal"];
                /** @description The part a cap or budget withheld. */
                capped_points: components["schemas"]["Decimal"];
                paid: components["schemas"]["Decimal"];
                /** @description Multipliers applied with their sources, base points, which limits capped it. */
                lineage: Record<string, unknown>;
                created_at: components["schemas"]["Time"];
                event: {
                    /** Format: uuid */
                    id: string;
                    /** Format: uuid */
                    reg_event_id?: string;
                    event_type?: string | null;
                    amount?: components["schemas"]["Decimal"];
                    identity_type?: components["schemas"]["IdentityType"];
                    account_id?: string;
                    /** @enum {string} */
                    source?: "api" | "batch" | "csv" | "indexer";
                    /** @description When the event happened (the rules evaluated it at this time). */
                    occurred_at?: components["schemas"]["Time"];
                    /** @description When the ingest API received it; equal to occurred_at for an event reported without one. */
                    received_at?: components["schemas"]["Time"];
                };
            }[];
        };
        LeaderboardPreview: {
            campaign_id: components["schemas"]["CampaignId"];
            currency: string;
            currency_names: components["schemas"]["Currencies"];
            /**
             * @description The campaign's leaderboard_ranking: what the entries are ordered by.
             * @enum {string}
             */
            ranking: "earned" | "balance";
            rule_version: number | null;
            at: components["schemas"]["Time"];
            entries: (components["schemas"]["UserLabel"] & {
                rank: number;
                /** Format: uuid */
                user_id: string;
                scores: {
                    [key: string]: components["schemas"]["Score"];
                };
                /** @description Per currency the user has a score row in, what rewards took and what is left (decayed to now like the scores). */
                balances: {
                    [key: string]: {
                        spent: components["schemas"]["Decimal"];
                        /** @description total - spent, never below zero. */
                        balance: components["schemas"]["Decimal"];
                    };
                };
            })[];
        };
        Chart: {
            campaign_id: components["schemas"]["CampaignId"];
            currency: string;
            /** @enum {string} */
            bucket: "hour" | "day";
            /** @description Bucket starts (UTC). */
            buckets: components["schemas"]["Time"][];
            series: (components["schemas"]["UserLabel"] & {
                /** Format: uuid */
                user_id: string;
                /** @description Running total at each bucket. */
                values: components["schemas"]["Decimal"][];
            })[];
        };
        CsvRowError: {
            /** @description Line number in the file (the header is line 1). */
            line: number;
            errors: {
                message: string;
                extensions: {
                    code: string;
                };
            }[];
        };
        CsvImport: {
            /** Format: uuid */
            import_id: string;
            campaign_id: components["schemas"]["CampaignId"];
            /** @enum {string} */
            mode: "all-or-nothing" | "accept-valid";
            /** @enum {string} */
            origin: "ingest-api" | "admin-api";
            file_name: string | null;
            /** @enum {string} */
            status: "validating" | "publishing" | "done" | "rejected" | "failed";
            rows_read: number;
            rows_valid: number;
            rows_invalid: number;
            rows_published: number;
            sample_errors: components["schemas"]["CsvRowError"][];
            error: string | null;
            created_at: components["schemas"]["Time"];
            updated_at: components["schemas"]["Time"];
            finished_at: components["schemas"]["NullableTime"];
        };
    };
    responses: {
        /** @description What the upload did and its bad rows (line numbers count the header as line 1). */
        ExclusionImport: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "done" | "rejected";
                    rows_read: number;
                    rows_valid: number;
                    rows_invalid: number;
                    created: number;
                    already_excluded: number;
                    invalid_rows: components["schemas"]["ListRowError"][];
                    invalid_rows_truncated: boolean;
                    recompute_jobs: components["schemas"]["RecomputeJob"][];
                };
            };
        };
        /** @description A page of the trail; `next_before` pages on (null on the last page). */
        AuditPage: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    entries: components["schemas"]["AuditEntry"][];
                    next_before: string | null;
                };
            };
        };
        /** @description Invalid input; the message names the field and the rule. Codes: validation-failed, display-name-not-allowed (a user's display name the boards would hide), current-password-wrong, malformed-json, invalid-utf8, payload-too-large, invalid-body (an event CSV upload that cannot be read to its end), rule-version-invalid, invalid-account-id, unsupported-media-type, csv-invalid-header, csv-malformed, too-many-rows, invalid-idempotency-key (the Idempotency-Key of an event CSV upload or an adjustment request). */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No, an invalid or an expired session token, one without exp, with a crit header or claiming a life over ADMIN_SESSION_MAX_AGE_S, one that was signed out, or one of an operator who was removed or has changed their password since (unauthenticated), or a wrong e-mail or password (invalid-credentials). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found in the operator's project (operator-not-found, campaign-not-found, api-key-not-found, event-type-not-found, rule-version-not-found, recompute-job-not-found, user-not-found, identity-not-found, csv-import-not-found, exclusion-not-found, adjustment-not-found, reward-not-found, redemption-not-found, claim-epoch-not-found). Another project's things get the same answer. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflicts with the current state: campaign-exists, project-choice-required (sign-in: send project_id), cannot-remove-self, password-changed, event-type-exists, campaign-archived, currency-in-use, dates-outside-decay-range, rule-version-active, recompute-in-progress, active-rule-version-invalid, log-too-large, referrer-already-set, identity-held, last-identity, identity-points-spent, api-key-revoked, exclusion-exists, adjustment-already-reversed, adjustment-is-reversal, idempotency-key-reused, reward-not-voucher, voucher-codes-unavailable, redemption-not-pending, claim-epoch-empty, claim-epoch-not-closed, claims-not-configured, claims-wrong-chain, not-claims-owner, epoch-root-already-set. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many password attempts for this e-mail, or sign-ins from this address, in the current window (too-many-attempts); Retry-After says in how many seconds it ends. */
        TooManyAttempts: {
            headers: {
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A dependency is unavailable for now: PostgreSQL cannot be reached, sheds work or rolled the transaction back (database-unavailable, database-busy, database-deadlock, database-serialization-failure; any operation that uses the database), the event bus or the import records of a CSV upload (bus-unavailable, service-unavailable), the chain an epoch root is published to (claims-publish-failed); or the process is still reaching PostgreSQL at start-up (starting, with Retry-After 1). Retrying later can succeed. */
        Unavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The identity, where it came from, and the queued recompute when it moved. */
        Linked: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    identity: components["schemas"]["Identity"];
                    /** Format: uuid */
                    moved_from_user_id: string | null;
                    recompute_job: components["schemas"]["RecomputeJob"] | null;
                };
            };
        };
    };
    parameters: {
        /** @description Makes a retry safe: a request that made adjustments is remembered with its key for as long as the campaign, and the same request with the key answers the first answer again (the same key with another request or endpoint is idempotency-key-reused, 409). A request that made nothing is not remembered. 1 to 255 printable ASCII characters without spaces, else invalid-idempotency-key (400). */
        AdjustmentIdempotencyKey: string;
        AuditAction: "campaign.create" | "campaign.update" | "campaign.archive" | "campaign.restore" | "campaign.bad-words" | "api-key.create" | "api-key.update" | "api-key.revoke" | "event-type.create" | "event-type.retire" | "rule-version.create" | "rule-version.activate" | "user.update" | "identity.link" | "identity.move" | "identity.update" | "identity.unlink" | "csv-import.events" | "exclusion.create" | "exclusion.lift" | "exclusion.import" | "adjustment.create" | "adjustment.import" | "reward.create" | "reward.update" | "reward.codes-upload" | "redemption.fulfil" | "redemption.reject" | "claim-epoch.close" | "claim-epoch.publish" | "operator.add" | "operator.remove";
        CampaignId: components["schemas"]["CampaignId"];
        Version: number;
        UserId: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
