// DIScopes: the lifetimes beyond DICore's transient and singleton. Filled by its issue.
